export interface FabricLink {
  id: number;
  url: string;
  fabric: number;
  a_switch: number;
  a_switch_name: string;
  a_port: string;
  z_switch: number;
  z_switch_name: string;
  z_port: string;
  length_m: number | null;
  fiber: string | null;
  speed_gbps: number | null;
  admin_state: 'enabled' | 'disabled';
  admin_reason: string;
  admin_changed_by: string | null;
  admin_changed_at: string | null;
  oper_state: 'up' | 'down';
}

export interface LinkFilters {
  fabric?: number;
  admin_state?: 'enabled' | 'disabled';
  oper_state?: 'up' | 'down';
  /** Either end of the link. */
  switch?: number;
}
