// The worker's key cache as the page's IndexedDB holds it (e2e/demo.spec.ts, e2e/product.spec.ts).
import { Page } from '@playwright/test';

// The `checkedBy` of a circuit's key cache entry: which module compared the cached keys with its
// circuit (`build <version> <module script>`, or the .wasm's SHA-256); undefined without an entry.
export async function cacheCheckedBy(page: Page, circuit: string): Promise<string | undefined> {
  return page.evaluate((id) => new Promise<string | undefined>((resolve, reject) => {
    const open = indexedDB.open('enygma-keys');
    open.onsuccess = () => {
      const get = open.result.transaction('keys', 'readonly').objectStore('keys').get(id);
      get.onsuccess = () => {
        open.result.close();
        resolve(get.result?.checkedBy);
      };
      get.onerror = () => reject(get.error);
    };
    open.onerror = () => reject(open.error);
  }), circuit);
}
