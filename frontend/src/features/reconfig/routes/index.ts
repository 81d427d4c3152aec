/** The pages of reconfig: only the app's router imports them (features meet through '@/features/reconfig', never through pages). */
export { LarryJobPage } from './LarryJobPage';
export { LarryPage } from './LarryPage';
export { ShareBackupJobPage } from './ShareBackupJobPage';
export { ShareBackupPage } from './ShareBackupPage';
