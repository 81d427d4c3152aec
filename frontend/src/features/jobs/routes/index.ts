/** The pages of jobs: only the app's router imports them (features meet through '@/features/jobs', never through pages). */
export { JobsPage } from './JobsPage';
