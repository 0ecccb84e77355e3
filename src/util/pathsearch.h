/* Finding a command in PATH, as execvp() does, before forking. */
#ifndef RENACER_PATHSEARCH_H
#define RENACER_PATHSEARCH_H

/*
 * Returns the path execvp() would run for prog (malloc'ed, caller frees):
 * prog itself when it contains a '/', else the first executable regular
 * file named prog in $PATH (an empty entry is the current directory;
 * without PATH, /usr/local/bin:/usr/bin:/bin).  Returns NULL with errno
 * set (ENOENT, or EACCES when a match exists but is not executable).
 */
char *path_search(const char *prog);

/*
 * path_search() for a command that will run elsewhere: path is the PATH
 * it will have (NULL: unset, the default list), and relative candidates
 * are looked up under dir (NULL: the current directory), where the
 * command will run.  The path returned is as execve() must be given it
 * from dir (a relative one stays relative).
 */
char *path_search_in(const char *prog, const char *path, const char *dir);

#endif
