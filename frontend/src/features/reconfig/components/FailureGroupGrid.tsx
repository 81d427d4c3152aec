import { groupRows, type GroupView, LAYER_LABEL, MEMBER_STATE_LABEL, type MemberState } from '../sharebackupData';

const LEGEND_ORDER: MemberState[] = ['active', 'spare', 'suspect', 'failed'];

interface FailureGroupGridProps {
  views: GroupView[];
  /** Switches the selected event names or moves (outlined). */
  highlighted: ReadonlySet<string>;
  caption: string;
}

/**
 * Failure groups in a grid, one row per layer and one cell per pod (core: per core group). Each
 * member is a box coloured by its state with the slot it plays; a group with a slot that no
 * working switch plays is flagged DEGRADED.
 */
export function FailureGroupGrid({ views, highlighted, caption }: FailureGroupGridProps) {
  return (
    <div className="group-grid" data-testid="failure-groups">
      <ul className="legend" aria-label="Member states">
        {LEGEND_ORDER.map((state) => (
          <li key={state}>
            <span className={`member-swatch member-${state}`} aria-hidden="true" />
            {MEMBER_STATE_LABEL[state]}
          </li>
        ))}
        <li>
          <span className="member-swatch member-highlight" aria-hidden="true" />
          named by the selected event
        </li>
      </ul>
      <p className="muted">{caption}</p>
      {groupRows(views).map((row) => (
        <div key={row.layer} className="group-row" role="group" aria-label={`${LAYER_LABEL[row.layer]} groups`}>
          <h4 className="group-row-title">{LAYER_LABEL[row.layer]}</h4>
          <div className="group-cells">
            {row.groups.map((view) => (
              <div
                key={view.group.id}
                className={`group-cell${view.degraded ? ' group-degraded' : ''}`}
                data-testid="failure-group"
                data-group={view.group.id}
                data-degraded={view.degraded}
              >
                <p className="group-title">
                  <span>{view.group.id}</span>
                  {view.degraded ? <span className="badge badge-degraded">DEGRADED</span> : null}
                </p>
                <ul className="group-members">
                  {view.members.map((member) => (
                    <li
                      key={member.name}
                      className={`member member-${member.state}${highlighted.has(member.name) ? ' member-highlighted' : ''}`}
                      data-testid="group-member"
                      data-member={member.name}
                      data-state={member.state}
                      title={`${member.name}: ${MEMBER_STATE_LABEL[member.state]}${member.slot ? `, plays ${member.slot}` : ''}`}
                    >
                      <span className="member-name">{member.name.slice(member.name.lastIndexOf('.') + 1)}</span>
                      <span className="member-slot">
                        {member.slot ? member.slot.slice(member.slot.lastIndexOf('.') + 1) : '—'}
                      </span>
                    </li>
                  ))}
                </ul>
                <p className="group-counts muted">
                  {view.spares} free · {view.failed} failed{view.suspects > 0 ? ` · ${view.suspects} suspect` : ''}
                </p>
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
