import { Link } from 'react-router';

import type { LinkComponents } from '../api/types';

type SiblingLink = LinkComponents['cable']['siblings'][number];

function Siblings({ links, none }: { links: SiblingLink[]; none: string }) {
  if (links.length === 0) return <span className="muted">{none}</span>;
  return (
    <ul className="link-siblings">
      {links.map((link) => (
        <li key={link.id}>
          <Link to={`/links/${link.id}`}>{link.name}</Link>
        </li>
      ))}
    </ul>
  );
}

/** What the link shares with others, as rows of the link page's facts: a repair of a shared
 * part (the breakout cable, a trunk) takes the sibling links down with it. */
export function LinkComponentsFacts({ components }: { components: LinkComponents }) {
  const { breakout, cable, line_cards: cards } = components;
  return (
    <>
      <div data-testid="link-breakout">
        <dt>Breakout group</dt>
        <dd>
          {breakout ? (
            <>
              {breakout.name}
              <span className="reason">
                {' '}
                ({breakout.explicit ? 'named' : 'by the port rule'}
                {breakout.side ? `, shared transceiver at ${breakout.side.toUpperCase()}` : ''})
              </span>
              <Siblings links={breakout.siblings} none="no other link in the group" />
            </>
          ) : (
            'none'
          )}
        </dd>
      </div>
      <div data-testid="link-cable-siblings">
        <dt>Shares its cable with</dt>
        <dd>
          <span className="reason">{cable.name}: </span>
          <Siblings links={cable.siblings} none="no other link" />
        </dd>
      </div>
      <div data-testid="link-line-cards">
        <dt>Line cards</dt>
        <dd>
          A {cards.a ?? '—'} · Z {cards.z ?? '—'}
        </dd>
      </div>
    </>
  );
}
