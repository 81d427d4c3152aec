import { Link } from 'react-router';

import { formatCount } from '@/lib/format';

import { useAtRiskCount } from '../api/useAtRiskCount';

/** The fabric page's count of links at risk, leading to the At risk page of that fabric. */
export function FabricAtRiskCount({ fabricId, horizonDays }: { fabricId: number; horizonDays: number }) {
  const count = useAtRiskCount(fabricId);
  if (count.data === undefined) return <>{count.isError ? 'could not count' : '…'}</>;
  const within = `within ${horizonDays} day${horizonDays === 1 ? '' : 's'}`;
  return (
    <Link to={`/at-risk?fabric=${fabricId}`} data-testid="fabric-at-risk">
      {count.data === 0
        ? `No link at risk ${within}`
        : `${formatCount(count.data)} link${count.data === 1 ? '' : 's'} at risk ${within}`}
    </Link>
  );
}
