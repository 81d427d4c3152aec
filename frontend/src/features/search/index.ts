/** What other features and the app may use of search: the header's search box. */
export { HeaderSearch } from './components/HeaderSearch';
