// Light or dark: the system's preference (prefers-color-scheme) until the toggle picks one, remembered on this browser.

const storageKey = "dropkit-playground-scheme";

/** Wires the toggle: a button whose pressed state says "dark". */
export function setUpScheme(toggle: HTMLButtonElement): void {
  const system = matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    const chosen = stored();
    const dark = chosen ? chosen === "dark" : system.matches;
    document.documentElement.dataset.scheme = dark ? "dark" : "light";
    toggle.setAttribute("aria-pressed", String(dark));
  };
  toggle.addEventListener("click", () => {
    const dark = document.documentElement.dataset.scheme !== "dark";
    // Choosing the system's own scheme goes back to following it.
    store(dark === system.matches ? undefined : dark ? "dark" : "light");
    apply();
  });
  system.addEventListener("change", apply);
  apply();
}

function stored(): string | undefined {
  try {
    return localStorage.getItem(storageKey) ?? undefined;
  } catch {
    return undefined; // storage may be off (a file:// page in some browsers, privacy settings): follow the system
  }
}

function store(value: string | undefined): void {
  try {
    if (value === undefined) localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, value);
  } catch {
    // Not remembered; the toggle still works for this page.
  }
}
