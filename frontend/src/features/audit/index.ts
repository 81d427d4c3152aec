/** What other features may use of the change log: the history of one object, for its page. */
export { ObjectHistory } from './components/ObjectHistory';
