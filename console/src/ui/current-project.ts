import { createContext, useContext, useEffect } from 'react';

/** The project the signed-in pages act in: from the path, or from the job or schedule a page shows. */
export const ProjectContext = createContext<{ projectId: string | null; setProjectId: (id: string) => void }>({
  projectId: null,
  setProjectId: () => undefined,
});

export const useCurrentProject = () => useContext(ProjectContext);

/** Pages call this with the project they show, so the navigation and the switcher follow. */
export function useProjectOfPage(projectId: string | undefined) {
  const { setProjectId } = useCurrentProject();
  useEffect(() => {
    if (projectId) setProjectId(projectId);
  }, [projectId, setProjectId]);
}
