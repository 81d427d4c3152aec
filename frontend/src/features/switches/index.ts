/** What other features may use of switches: a switch's or rack's name that opens its page, and their paths. */
export { RackName, SwitchName } from './components/SwitchName';
export { rackPath, switchPath } from './paths';
/** The app's router titles the switch page with its name. */
export { useSwitchName } from './api/useSwitchOverview';
