/** The switch and rack pages: only the app's router imports them. */
export { RackPage } from './RackPage';
export { SwitchPage } from './SwitchPage';
