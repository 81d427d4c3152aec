/** What other features may use of circuits: the circuit switches of a fabric. */
export { useCircuitSwitches } from './api/useCircuitSwitches';
