import { formatCount } from '@/lib/format';

import type { LengthBand } from '../api/types';
import { formatPercent } from '../planData';

/** Expected-value mode: which part takes which length range, and the share of links in it. */
export function BandsTable({ bands }: { bands: LengthBand[] }) {
  return (
    <table className="data-table" data-testid="plan-bands">
      <caption className="visually-hidden">Parts by link length (expected-value mode)</caption>
      <thead>
        <tr>
          <th scope="col">Lengths</th>
          <th scope="col" className="numeric">
            Share of links
          </th>
          <th scope="col">Baseline</th>
          <th scope="col">Plan</th>
          <th scope="col">Stretched</th>
          <th scope="col" className="numeric">
            P(good)
          </th>
        </tr>
      </thead>
      <tbody>
        {bands.map((band) => (
          <tr key={band.from_m}>
            <th scope="row">
              {formatCount(band.from_m)}–{formatCount(band.to_m)} m
            </th>
            <td className="numeric">{formatPercent(band.share)}</td>
            <td>{band.baseline}</td>
            <td>{band.plan}</td>
            <td>{band.stretched ? 'yes' : 'no'}</td>
            <td className="numeric">{formatPercent(band.p_good, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
