// The hosted page's offline copy: the page and its later part, which this worker keeps so that a page visited once opens
// without a network. The page network first (a hosted page is always the newest), the kept copy when the network fails;
// the later part from the copy first (its name holds its hash: it never changes). Registered once the page shows its
// first result; not used from file:// (a saved page needs none). The build fills in the names, so a new page is a new worker.
const kept = "dropkit-playground-__DROPKIT_PAGE_HASH__";
const later = "__DROPKIT_LATER__";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(kept)
      .then((cache) => cache.addAll(["./index.html", `./${later}`]))
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
  if (event.request.mode === "navigate") {
    event.respondWith(fetch(event.request).catch(() => caches.match("./index.html", { ignoreSearch: true })));
  } else if (new URL(event.request.url).pathname.endsWith(`/${later}`)) {
    event.respondWith(caches.match(event.request).then((copy) => copy ?? fetch(event.request)));
  }
});
