// The crew's outbox keeps its queue in IndexedDB; in Node, fake-indexeddb is that IndexedDB (as in the
// crew's own tests), and one instance lives for the whole file, so a "client restart" reopens the data.
import 'fake-indexeddb/auto';
