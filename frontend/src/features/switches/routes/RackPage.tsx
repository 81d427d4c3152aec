import { Link, useParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { formatCount } from '@/lib/format';

import { useRack } from '../api/useRack';
import { LinkRowsTable } from '../components/LinkRowsTable';
import { OpenTicketsTable } from '../components/OpenTicketsTable';
import { SwitchName } from '../components/SwitchName';

export function RackPage() {
  const { fabricId: rawFabric, rack = '' } = useParams();
  const fabricId = Number(rawFabric);
  if (!Number.isInteger(fabricId) || fabricId <= 0 || !rack) {
    return (
      <section>
        <h1>Rack not found</h1>
        <p>
          <Link to="/fabrics">Back to fabrics</Link>
        </p>
      </section>
    );
  }
  return <RackDetail fabricId={fabricId} rack={rack} />;
}

function RackDetail({ fabricId, rack }: { fabricId: number; rack: string }) {
  const overview = useRack(fabricId, rack);
  const data = overview.data;
  return (
    <article aria-labelledby="rack-heading" className="rack-page">
      <p className="breadcrumb">
        <Link to="/fabrics">Fabrics</Link>
        {' / '}
        <Link to={`/fabrics/${fabricId}`}>{data?.fabric_name ?? `fabric ${fabricId}`}</Link>
      </p>
      <h1 id="rack-heading">Rack {rack}</h1>
      {overview.isPending ? <Loading label="Loading rack…" /> : null}
      <ErrorList error={overview.error} title="Could not load the rack." />
      {data ? (
        <>
          <section className="panel" aria-labelledby="rack-switches-heading">
            <h2 id="rack-switches-heading">Switches ({formatCount(data.switches.length)})</h2>
            <div className="table-scroll">
              <table className="data-table" data-testid="rack-switches">
                <thead>
                  <tr>
                    <th scope="col">Switch</th>
                    <th scope="col">Tier</th>
                    <th scope="col">Pod</th>
                    <th scope="col">Links</th>
                    <th scope="col">Down for maintenance</th>
                  </tr>
                </thead>
                <tbody>
                  {data.switches.map((row) => (
                    <tr key={row.id}>
                      <td>
                        <SwitchName id={row.id} name={row.name} />
                      </td>
                      <td>{row.tier_name}</td>
                      <td>{row.pod ?? '—'}</td>
                      <td>{formatCount(row.links)}</td>
                      <td>{formatCount(row.maintenance_links)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
          <section className="panel" aria-labelledby="rack-links-heading">
            <h2 id="rack-links-heading">Links ({formatCount(data.links.length)})</h2>
            <p className="muted">{formatCount(data.links_leaving)} of them leave the rack.</p>
            <LinkRowsTable links={data.links} fabricId={fabricId} caption={`Links of rack ${rack}`} />
          </section>
          <section className="panel" aria-labelledby="rack-tickets-heading">
            <h2 id="rack-tickets-heading">Open tickets ({formatCount(data.open_tickets.length)})</h2>
            <OpenTicketsTable tickets={data.open_tickets} />
          </section>
        </>
      ) : null}
    </article>
  );
}
