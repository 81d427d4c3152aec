import { ACTION_LABELS, isRepairAction } from '@/features/tickets';

/** What to do, in the tickets' words ("Replace the cable"); an unknown action as it is. */
export function actionLabel(action: string): string {
  return isRepairAction(action) ? ACTION_LABELS[action].todo : action;
}
