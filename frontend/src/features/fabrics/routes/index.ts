/** The pages of fabrics: only the app's router imports them (features meet through '@/features/fabrics', never through pages). */
export { FabricDetailPage } from './FabricDetailPage';
export { FabricsPage } from './FabricsPage';
