// Theme and module names of a drop's archives, as the core names them: what completion offers for `theme` and the module lists.

/** `ocean-theme.zip` is the theme `ocean`, `blog.zip` the module `blog`; each list by name, as a folder has no other order. */
export function archiveNames(archives: string[]): { themeNames: string[]; moduleNames: string[] } {
  const themeNames: string[] = [];
  const moduleNames: string[] = [];
  for (const file of archives) {
    const base = file.replace(/\.zip$/i, "");
    // As the core's selection names them: "-theme.zip" alone is a module, since a theme name is never empty.
    const theme = /^(.+)-theme$/is.exec(base);
    if (theme) themeNames.push(theme[1]!);
    else moduleNames.push(base);
  }
  // Sorted by UTF-16 code units, as the drop's scan sorts: the same for every locale.
  return { themeNames: themeNames.sort(), moduleNames: moduleNames.sort() };
}
