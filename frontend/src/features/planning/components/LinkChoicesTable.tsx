import { useMemo, useState } from 'react';
import { Link } from 'react-router';

import { Pagination } from '@/components/Pagination';
import { clampPage, pageOffset } from '@/lib/pagination';

import type { LinkChoice } from '../api/types';
import { filterLinks, formatPercent, formatUsd, type LinkFilter, NO_LINK_FILTER, partsUsed } from '../planData';

const PAGE_SIZE = 50;
const LENGTH = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * Per-link choices, filterable to the stretched links; paged in the browser (the result holds every
 * link). Stored links open their link page.
 */
export function LinkChoicesTable({ links, stored }: { links: LinkChoice[]; stored: boolean }) {
  const [filter, setFilter] = useState<LinkFilter>(NO_LINK_FILTER);
  const [page, setPage] = useState(1);
  const parts = useMemo(() => partsUsed(links), [links]);
  const shown = useMemo(() => filterLinks(links, filter), [links, filter]);
  const current = clampPage(page, shown.length, PAGE_SIZE);
  const rows = shown.slice(pageOffset(current, PAGE_SIZE), pageOffset(current, PAGE_SIZE) + PAGE_SIZE);
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
            {parts.map((part) => (
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
      <p className="muted" data-testid="plan-links-count">
        {shown.length.toLocaleString('en-US')} of {links.length.toLocaleString('en-US')} links
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
          {rows.map((link) => (
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
        total={shown.length}
        page={current}
        pageSize={PAGE_SIZE}
        shown={rows.length}
        onPageChange={setPage}
        label="Link pages"
      />
    </>
  );
}
