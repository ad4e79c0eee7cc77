# bench:create's drop of many small archives: python3 bench/many-zips.py <dir> <count> makes module-00000.zip ... and
# ocean-theme.zip in <dir>, each deflated with an index.html and a module.json, their mtimes an hour old.
import os, sys, time, zipfile

os.chdir(sys.argv[1])
old = time.time() - 3600
names = ["module-%05d.zip" % i for i in range(int(sys.argv[2]))] + ["ocean-theme.zip"]
for name in names:
    with zipfile.ZipFile(name, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("index.html", "<p>%s</p>\n" % name)
        z.writestr("module.json", '{"name": "%s"}\n' % name)
    os.utime(name, (old, old))
