/* serve.h -- `citadel serve`: the web server (see server.h). */
#ifndef CITADEL_SERVE_H
#define CITADEL_SERVE_H

/* argv holds the options after "serve"; returns the exit status. */
int serve_main(int argc, char **argv);

#endif
