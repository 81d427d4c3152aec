/** The pages of links: only the app's router imports them (features meet through '@/features/links', never through pages). */
export { LinkDetailPage } from './LinkDetailPage';
export { LinksPage } from './LinksPage';
