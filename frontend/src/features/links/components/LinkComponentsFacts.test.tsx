/** @vitest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { LinkComponents } from '../api/types';
import { LinkComponentsFacts } from './LinkComponentsFacts';

const SIBLINGS = [
  { id: 54, name: 'p1-tor5:eth2/2 - p1-fab1:eth1/6' },
  { id: 55, name: 'p1-tor5:eth2/3 - p1-fab2:eth1/6' },
];

function renderFacts(components: LinkComponents) {
  return render(
    <MemoryRouter>
      <dl>
        <LinkComponentsFacts components={components} />
      </dl>
    </MemoryRouter>,
  );
}

describe('LinkComponentsFacts', () => {
  it('links to the breakout siblings a cable repair takes down', () => {
    renderFacts({
      breakout: { name: 'p1-tor5 eth2/1-4', explicit: false, side: 'a', siblings: SIBLINGS },
      cable: { kind: 'breakout', name: 'breakout cable p1-tor5 eth2/1-4', siblings: SIBLINGS },
      line_cards: { a: 'eth2', z: 'eth1' },
    });
    const breakout = screen.getByTestId('link-breakout');
    expect(breakout).toHaveTextContent('p1-tor5 eth2/1-4 (by the port rule, shared transceiver at A)');
    const links = within(breakout).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/links/54', '/links/55']);
    expect(links[0]).toHaveTextContent('p1-tor5:eth2/2 - p1-fab1:eth1/6');
    const cable = screen.getByTestId('link-cable-siblings');
    expect(cable).toHaveTextContent('breakout cable p1-tor5 eth2/1-4');
    expect(within(cable).getAllByRole('link')).toHaveLength(2);
    expect(screen.getByTestId('link-line-cards')).toHaveTextContent('A eth2 · Z eth1');
  });

  it('says when the link shares nothing', () => {
    renderFacts({
      breakout: null,
      cable: { kind: 'own', name: 'its own cable', siblings: [] },
      line_cards: { a: null, z: 'lc-3' },
    });
    expect(screen.getByTestId('link-breakout')).toHaveTextContent('none');
    expect(screen.getByTestId('link-cable-siblings')).toHaveTextContent('its own cable: no other link');
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.getByTestId('link-line-cards')).toHaveTextContent('A — · Z lc-3');
  });
});
