import { useState } from 'react';
import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Pagination } from '@/components/Pagination';
import { formatCount } from '@/lib/format';
import { pageOffset } from '@/lib/pagination';

import { type LinkFilter, type LinkRows, NO_LINK_FILTER } from '../api/types';
import { usePlanLinks } from '../api/usePlanLinks';
import { formatPercent, formatUsd } from '../planData';

const PAGE_SIZE = 50;
const LENGTH = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * Per-link choices, filterable to the stretched links, a part or a name; a page at a time from the
 * server (a 100K-link plan's rows are 20 MB, too many to load for the page). Stored links open their
 * link page.
 */
export function LinkChoicesTable({ jobId, rows, stored }: { jobId: number; rows: LinkRows; stored: boolean }) {
  const [filter, setFilter] = useState<LinkFilter>(NO_LINK_FILTER);
  const [page, setPage] = useState(1);
  const links = usePlanLinks(jobId, filter, { limit: PAGE_SIZE, offset: pageOffset(page, PAGE_SIZE) });
  const shown = links.data?.results ?? [];
  const total = links.data?.count ?? 0;
  const change = (next: Partial<LinkFilter>) => {
    setFilter((previous) => ({ ...previous, ...next }));
    setPage(1);
  };

  return (
    <>
      <form className="filters" aria-label="Link filters" onSubmit={(event) => event.preventDefault()}>
        <label className="check">
          <input
            type="checkbox"
            checked={filter.stretchedOnly}
            onChange={(event) => change({ stretchedOnly: event.target.checked })}
          />
          Stretched links only
        </label>
        <label>
          Part
          <select value={filter.part} onChange={(event) => change({ part: event.target.value })}>
            <option value="">any</option>
            {rows.parts.map((part) => (
              <option key={part} value={part}>
                {part}
              </option>
            ))}
          </select>
        </label>
        <label>
          Link name
          <input type="search" value={filter.text} onChange={(event) => change({ text: event.target.value })} />
        </label>
      </form>
      <ErrorList error={links.error} title="Could not load the links." />
      <p className="muted" data-testid="plan-links-count" aria-busy={links.isFetching}>
        {links.data ? `${formatCount(total)} of ${formatCount(rows.count)} links` : 'Loading links…'}
      </p>
      <table className="data-table" data-testid="plan-links">
        <caption className="visually-hidden">Transceiver chosen per link, baseline and plan</caption>
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col" className="numeric">
              Length
            </th>
            <th scope="col" className="numeric">
              Speed
            </th>
            <th scope="col">Baseline</th>
            <th scope="col">Plan</th>
            <th scope="col">Stretched</th>
            <th scope="col" className="numeric">
              P(good)
            </th>
            <th scope="col" className="numeric">
              Baseline cost
            </th>
            <th scope="col" className="numeric">
              Plan cost
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((link) => (
            <tr key={link.link} data-testid="plan-link-row">
              <th scope="row">{stored ? <Link to={`/links/${link.link}`}>{link.name}</Link> : link.name}</th>
              <td className="numeric">{LENGTH.format(link.length_m)} m</td>
              <td className="numeric">{link.speed_gbps}G</td>
              <td>{link.baseline}</td>
              <td>{link.plan}</td>
              <td>{link.stretched ? <span className="badge badge-demo">stretched</span> : 'no'}</td>
              <td className="numeric">{formatPercent(link.p_good, 2)}</td>
              <td className="numeric">{formatUsd(link.baseline_usd)}</td>
              <td className="numeric">{formatUsd(link.plan_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination
        total={total}
        page={page}
        pageSize={PAGE_SIZE}
        shown={shown.length}
        onPageChange={setPage}
        label="Link pages"
      />
    </>
  );
}
