import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A write whose success invalidates the queries under `invalidates` (the lists that show what it
 * changed), so they are read again. Errors stay on the mutation for the form or dialog to show.
 */
export function useWrite<TData, TVariables = void>(mutationFn: (variables: TVariables) => Promise<TData>, invalidates: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: invalidates }) });
}
