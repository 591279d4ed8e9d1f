// Unit tests run in Node, where the store's IndexedDB is fake-indexeddb: the same store code as
// the app, on an in-memory database.
import 'fake-indexeddb/auto';
