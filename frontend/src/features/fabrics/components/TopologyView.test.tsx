/** @vitest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { buildClos } from './testFabric';
import { TopologyView } from './TopologyView';

describe('TopologyView', () => {
  it('draws every link as an SVG line, coloured by health and patterned by state, with a legend', () => {
    const topology = buildClos({ pods: 2, torsPerPod: 3, fabricsPerPod: 2, spinesPerPlane: 2 });
    topology.links[0] = { ...topology.links[0]!, oper_state: 'down' };
    topology.links[1] = { ...topology.links[1]!, admin_state: 'disabled' };
    topology.links[2] = { ...topology.links[2]!, health: 'corrupting' };
    topology.links[3] = { ...topology.links[3]!, health: 'lossy', admin_state: 'disabled' };
    topology.corrupting_in_service = 1;
    render(
      <MemoryRouter>
        <TopologyView topology={topology} fabricId={1} fabricName="demo-fb" />
      </MemoryRouter>,
    );

    const root = screen.getByTestId('topology');
    const drawing = screen.getByTestId('topology-svg');
    expect(root).toHaveAttribute('data-renderer', 'svg');
    expect(drawing.querySelectorAll('line.topology-link')).toHaveLength(topology.links.length);
    expect(drawing.querySelectorAll('line.topology-link[data-state="down"]')).toHaveLength(1);
    expect(drawing.querySelectorAll('line.topology-link[data-state="disabled"]')).toHaveLength(2);
    const corrupting = drawing.querySelectorAll('line.topology-link[data-health="corrupting"]');
    expect(corrupting).toHaveLength(1);
    // Colour is health, pattern is state: the disabled lossy link is orange and dashed.
    expect(corrupting[0]!.parentElement).toHaveAttribute('stroke', '#c62828');
    const lossy = drawing.querySelector('line.topology-link[data-health="lossy"]')!;
    expect(lossy.parentElement).toHaveAttribute('stroke', '#d9822b');
    expect(lossy.parentElement).toHaveAttribute('stroke-dasharray', '5 4');
    expect(drawing.querySelectorAll('circle.topology-node')).toHaveLength(topology.switches.length);
    expect(screen.getByRole('img', { name: /^Topology of demo-fb: 3 tiers/ })).toBeInTheDocument();
    expect(screen.getByTestId('legend-down')).toHaveTextContent('Enabled, down (1)');
    expect(screen.getByTestId('legend-health-corrupting')).toHaveTextContent('Corrupting (1)');
    expect(screen.getByTestId('legend-corrupting-in-service')).toHaveTextContent('Corrupting in service (1)');
    expect(screen.getByRole('link', { name: 'Corrupting in service (1)' })).toHaveAttribute(
      'href',
      '/links?fabric=1&corrupting_in_service=true',
    );
    expect(screen.getByTestId('legend-health-lossy')).toHaveTextContent('Lossy (1)');
    expect(screen.getByTestId('legend-health-clean')).toHaveTextContent('Clean (0)');
    expect(screen.getByTestId('legend-health-unknown')).toHaveTextContent(
      `Unknown (${(topology.links.length - 2).toLocaleString('en-US')})`,
    );
    expect(screen.getByRole('list', { name: 'Link health (line colour)' })).toBeInTheDocument();
    expect(screen.getByText('pod 1')).toBeInTheDocument();
    expect(screen.getByText('plane 0')).toBeInTheDocument();
  });
});
