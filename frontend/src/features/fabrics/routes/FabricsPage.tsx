import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { pageOffset, parsePageParam } from '@/lib/pagination';

import { useFabrics } from '../api/useFabrics';
import { FabricsTable } from '../components/FabricsTable';

const PAGE_SIZE = 50;

export function FabricsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = parsePageParam(searchParams.get('page'));
  const fabrics = useFabrics({ limit: PAGE_SIZE, offset: pageOffset(page, PAGE_SIZE) });

  return (
    <section aria-labelledby="fabrics-heading">
      <h1 id="fabrics-heading">Fabrics</h1>
      <p className="lede">Clos fabrics known to Lightpath. Open one to see its topology and per-ToR capacity.</p>
      {fabrics.isPending ? <Loading label="Loading fabrics…" /> : null}
      <ErrorList error={fabrics.error} title="Could not load fabrics." />
      {fabrics.data ? (
        fabrics.data.count === 0 ? (
          <p>No fabrics yet. Import one with the CLI or POST /api/fabrics/import/.</p>
        ) : (
          <>
            <FabricsTable fabrics={fabrics.data.results} />
            <Pagination
              label="Fabrics pages"
              total={fabrics.data.count}
              page={page}
              pageSize={PAGE_SIZE}
              shown={fabrics.data.results.length}
              onPageChange={(next) => setSearchParams({ page: String(next) })}
            />
          </>
        )
      ) : null}
    </section>
  );
}
