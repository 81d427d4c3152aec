import type { LinkFacts, SwitchFacts, Transceiver } from '../api/types';
import { nearAndFar, visitLocations } from '../workOrders';

interface FactsProps {
  links: readonly LinkFacts[];
  switches: ReadonlyMap<string, SwitchFacts>;
  transceivers: readonly Transceiver[];
}

/** Where to go: rack, switch and ports, first thing on the page. */
export function VisitLocation({ links, switches, transceivers }: FactsProps) {
  const places = visitLocations(links, switches, transceivers);
  return (
    <dl className="facts visit-location" data-testid="visit-location">
      {places.map((place) => (
        <div key={place.switch} className="visit-place">
          <div>
            <dt>Rack</dt>
            <dd data-testid="location-rack">{place.rack || '—'}</dd>
          </div>
          <div>
            <dt>Switch</dt>
            <dd data-testid="location-switch">{place.switch}</dd>
          </div>
          <div>
            <dt>{place.ports.length === 1 ? 'Port' : 'Ports'}</dt>
            <dd data-testid="location-ports">{place.ports.join(', ')}</dd>
          </div>
        </div>
      ))}
    </dl>
  );
}

function transceiverText(transceiver: Transceiver | undefined): string {
  if (!transceiver) return 'none recorded';
  return transceiver.serial ? `${transceiver.model_name}, serial ${transceiver.serial}` : transceiver.model_name;
}

/** What to bring, link by link: cable length and fiber, the transceivers at both ends, the far end's rack. */
export function WhatToBring({ links, switches, transceivers }: FactsProps) {
  return (
    <ul className="bring-list" data-testid="bring-list">
      {links.map((link) => {
        const { near, far } = nearAndFar(link, switches, transceivers);
        return (
          <li key={link.id} data-testid="bring-link" data-link-id={link.id}>
            <p className="bring-link-name">
              {near.switch} {near.port} → {far.switch} {far.port}
            </p>
            <dl className="facts compact-facts">
              <div>
                <dt>Cable</dt>
                <dd>
                  {link.length_m === null ? 'length unknown' : `${link.length_m} m`}, {link.fiber || 'fiber unknown'}
                </dd>
              </div>
              <div>
                <dt>Transceiver here</dt>
                <dd>{transceiverText(near.transceiver)}</dd>
              </div>
              <div>
                <dt>Transceiver far end</dt>
                <dd>{transceiverText(far.transceiver)}</dd>
              </div>
              <div>
                <dt>Far-end rack</dt>
                <dd data-testid="far-rack">{far.rack || `— (${far.switch})`}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
