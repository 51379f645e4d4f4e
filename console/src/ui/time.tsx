/** A time in the viewer's time zone, with UTC on hover (and for screen readers, the machine-readable value). */
export function DateTime({ value, withSeconds }: { value: string | null | undefined; withSeconds?: boolean }) {
  if (!value) return <span className="muted">—</span>;
  const date = new Date(value);
  const local = date.toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: withSeconds ? 'medium' : 'short',
  });
  return (
    <time
      dateTime={value}
      title={`${date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}`}
    >
      {local}
    </time>
  );
}
