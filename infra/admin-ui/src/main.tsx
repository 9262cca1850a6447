// The app's home inside Shopify's admin (docs/admin.md): the program's figures, customer search and a
// customer's page. Three views behind the address's hash (`#/`, `#/customers`, `#/customers/{id}`), so the
// browser's back button and a link to one member work; each view moves focus to its heading.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CustomerPage } from './CustomerPage';
import { OverviewView } from './OverviewView';
import { initialRoute, routeOf, type Route } from './model';
import { SearchView } from './SearchView';
import styles from './styles.css';

function App() {
  const [route, setRoute] = useState<Route>(initialRoute(location.hash, location.search));
  useEffect(() => {
    const onHash = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const current = route.view === 'customer' ? 'search' : route.view;
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="bar">
        <span class="brand">Loyalty program</span>
        <nav aria-label="Sections">
          <a href="#/" aria-current={current === 'overview' ? 'page' : undefined}>
            Overview
          </a>
          <a href="#/customers" aria-current={current === 'search' ? 'page' : undefined}>
            Customers
          </a>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {route.view === 'overview' && <OverviewView />}
        {route.view === 'search' && <SearchView initialQuery={route.query} />}
        {route.view === 'customer' && <CustomerPage key={route.id} id={route.id} />}
      </main>
    </>
  );
}

const style = document.createElement('style');
style.textContent = styles;
document.head.append(style);

const root = document.getElementById('app');
if (root) render(<App />, root);
