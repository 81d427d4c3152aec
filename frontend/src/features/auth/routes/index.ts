/** The pages of auth: only the app's router imports them (features meet through '@/features/auth', never through pages). */
export { LoginPage } from './LoginPage';
