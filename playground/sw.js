// The hosted page's offline copy: the page is one file, which this worker keeps so that a page visited once opens
// without a network. Network first (a hosted page is always the newest), the kept copy when the network fails.
// Not used from file:// (a saved page needs none). The build fills in the page's hash, so a new page is a new worker.
const kept = "dropkit-playground-__DROPKIT_PAGE_HASH__";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(kept)
      .then((cache) => cache.add("./index.html"))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  const old = (names) => Promise.all(names.filter((name) => name !== kept).map((name) => caches.delete(name)));
  event.waitUntil(
    caches
      .keys()
      .then(old)
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(fetch(event.request).catch(() => caches.match("./index.html", { ignoreSearch: true })));
});
