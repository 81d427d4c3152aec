import type { LinkHealth } from '@/lib/linkHealth';

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
  health: LinkHealth;
  /** Some side's Rx is below its lower limit or dark. */
  rx_low: boolean;
}

export interface LinkFilters {
  fabric?: number;
  admin_state?: 'enabled' | 'disabled';
  oper_state?: 'up' | 'down';
  /** Either end of the link. */
  switch?: number;
  /** Any of these (the API ORs a repeated parameter). */
  health?: LinkHealth[];
  /** Only links with a low or dark receiver. */
  rx_low?: true;
}
