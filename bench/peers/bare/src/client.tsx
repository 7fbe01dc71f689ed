import { hydrateRoot } from 'react-dom/client';
import { Counter } from './counter.ts';

// Only the counter island hydrates; the rest of the page stays server HTML.
const island = document.getElementById('counter')!;
hydrateRoot(island, <Counter {...JSON.parse(island.dataset.props!)} />);
