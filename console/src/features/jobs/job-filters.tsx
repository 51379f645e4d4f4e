import { useEffect, useState } from 'react';
import { Button } from '../../ui/forms';

/** The search box: sent on Enter or `Search`, so the URL (and the API) is not hit at every key press. */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <form
      role="search"
      className="field job-search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(draft.trim());
      }}
    >
      <label htmlFor="jobs-q">Search</label>
      <div className="inline">
        <input id="jobs-q" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="Job id, keyword or ASIN" />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </div>
    </form>
  );
}

export function DateFilter({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="date" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
