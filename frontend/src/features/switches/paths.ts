/** Where a switch's and a rack's pages are (the server's search answers the same paths). */
export function switchPath(switchId: number): string {
  return `/switches/${switchId}`;
}

export function rackPath(fabricId: number, rack: string): string {
  return `/fabrics/${fabricId}/racks/${encodeURIComponent(rack)}`;
}
