import { Link } from 'react-router';

import { rackPath, switchPath } from '../paths';

/** A switch's name that opens its page: what clicking a switch does anywhere. */
export function SwitchName({ id, name }: { id: number; name: string }) {
  return <Link to={switchPath(id)}>{name}</Link>;
}

/** A rack's name that opens the rack's page; "—" for a switch without a rack recorded. */
export function RackName({ fabricId, rack }: { fabricId: number; rack: string }) {
  if (!rack) return <span title="No rack recorded">—</span>;
  return <Link to={rackPath(fabricId, rack)}>{rack}</Link>;
}
