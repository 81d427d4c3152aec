/** What the app may use of reconfig: who may start its jobs (for the navigation) and the ShareBackup and Larry pages. */
export { RECONFIG_JOB_ROLES } from './roles';
export { LarryJobPage } from './routes/LarryJobPage';
export { LarryPage } from './routes/LarryPage';
export { ShareBackupJobPage } from './routes/ShareBackupJobPage';
export { ShareBackupPage } from './routes/ShareBackupPage';
