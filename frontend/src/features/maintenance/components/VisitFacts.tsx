import type { LinkFacts, SwitchFacts, Transceiver, WorkOrderLocation } from '../api/types';
import { nearAndFar, visitLocations, type VisitLocation as Place } from '../workOrders';

interface FactsProps {
  links: readonly LinkFacts[];
  switches: ReadonlyMap<string, SwitchFacts>;
  transceivers: readonly Transceiver[];
  /** The switch the work is at (the order's location); links are read from there. */
  here?: string;
}

/** One end's facts; `testId` names the end and prefixes its facts' ids (location-rack, location-far-rack). */
function PlaceFacts({ place, testId }: { place: Place; testId: string }) {
  return (
    <dl className="facts" data-testid={testId}>
      {place.row !== undefined ? (
        <div>
          <dt>Row</dt>
          <dd data-testid={`${testId}-row`}>{place.row}</dd>
        </div>
      ) : null}
      <div>
        <dt>Rack</dt>
        <dd data-testid={`${testId}-rack`}>{place.rack || '—'}</dd>
      </div>
      <div>
        <dt>Switch</dt>
        <dd data-testid={`${testId}-switch`}>{place.switch}</dd>
      </div>
      <div>
        <dt>{place.ports.length === 1 ? 'Port' : 'Ports'}</dt>
        <dd data-testid={`${testId}-ports`}>{place.ports.join(', ')}</dd>
      </div>
    </dl>
  );
}

/**
 * Where to go, first thing on the page: the server's location of the work (a far-end transceiver's
 * switch, a breakout cable's breakout side) and, for a cable, where its other end is.
 */
export function VisitLocation({
  location,
  links,
  switches,
}: {
  location: WorkOrderLocation | null;
  links: readonly LinkFacts[];
  switches: ReadonlyMap<string, SwitchFacts>;
}) {
  if (location === null) {
    return (
      <p className="muted" data-testid="visit-location">
        Not recorded: its ticket’s link is gone, or the order was opened before orders had a location (it gets one when
        its tickets change).
      </p>
    );
  }
  const { here, far } = visitLocations(location, links, switches);
  return (
    <div className="visit-location" data-testid="visit-location">
      {far.length > 0 ? <h3>From</h3> : null}
      <PlaceFacts place={here} testId="location" />
      {far.length > 0 ? <h3>To</h3> : null}
      {far.map((place) => (
        <PlaceFacts key={place.switch} place={place} testId="location-far" />
      ))}
    </div>
  );
}

function transceiverText(transceiver: Transceiver | undefined): string {
  if (!transceiver) return 'none recorded';
  return transceiver.serial ? `${transceiver.model_name}, serial ${transceiver.serial}` : transceiver.model_name;
}

/** What to bring, link by link from the work's switch: cable length and fiber, the transceivers at both ends, the far end's rack. */
export function WhatToBring({ links, switches, transceivers, here }: FactsProps) {
  return (
    <ul className="bring-list" data-testid="bring-list">
      {links.map((link) => {
        const { near, far } = nearAndFar(link, switches, transceivers, here);
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
