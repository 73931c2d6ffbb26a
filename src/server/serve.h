/* serve.h -- `citadel serve`, the web server (see server.h), and
 * `citadel admin`, its roles on the command line. */
#ifndef CITADEL_SERVE_H
#define CITADEL_SERVE_H

/* argv holds the options after "serve"; returns the exit status. */
int serve_main(int argc, char **argv);
/* `citadel admin` (admin.c): argv holds what follows "admin". */
int admin_main(int argc, char **argv);

#endif
