/** What the app and other features may use of maintenance: who has a day to look at (the navigation's "Today"). */
export { TODAY_ROLES } from './roles';
