import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { CompareJobs } from './compare';
import { Timeline } from './timeline';
import { TrackedList } from './tracked-list';
import type { TrackingSearch } from './tracking-search';
import './tracking.css';

/** Tracking: the chosen product's view first (its prices over a range), then the tracked products, then compare. */
export function TrackingPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const search = useSearch({ strict: false }) as TrackingSearch;
  const navigate = useNavigate();
  const setSearch = (next: Partial<TrackingSearch>) =>
    void navigate({ to: '/console/projects/$projectId/tracking', params: { projectId }, search: { ...search, ...next }, replace: true });

  return (
    <div className="tracking">
      <h1>Tracking</h1>
      {search.asin && search.marketplace ? (
        <>
          <p>
            <Link
              to="/console/projects/$projectId/tracking"
              params={{ projectId }}
              search={{ ...search, asin: undefined, marketplace: undefined, postalCode: undefined, range: undefined }}
            >
              ← All tracked products
            </Link>
          </p>
          <Timeline
            projectId={projectId}
            asin={search.asin}
            marketplace={search.marketplace}
            {...(search.postalCode ? { postalCode: search.postalCode } : {})}
            {...(search.range ? { range: search.range } : {})}
          />
        </>
      ) : (
        <p className="muted">
          Every product your jobs crawl is tracked: each snapshot is compared with the one before, and changes are kept. Choose a product to
          see its prices over time.
        </p>
      )}
      <TrackedList projectId={projectId} search={search} onSearch={setSearch} />
      <CompareJobs projectId={projectId} from={search.from} to={search.to} onChange={(next) => setSearch(next)} />
    </div>
  );
}
