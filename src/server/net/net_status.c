/* net_status.c -- see net_status.h. The table holds every status the
 * server sends; a status missing from it is a bug the tests of the
 * answers catch ("Unknown" on the wire). */
#include <stdio.h>

#include "net_status.h"

const char *net_reason(int status)
{
    switch (status) {
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 426: return "Upgrade Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Unknown";
    }
}

int net_status_line(char *buf, size_t size, int status)
{
    int n = snprintf(buf, size, "HTTP/1.1 %d %s", status, net_reason(status));
    return n < 0 || (size_t)n >= size ? -1 : n;
}

int net_closing_answer(char *buf, size_t size, int status, const char *extra,
                       const char *why)
{
    int line = net_status_line(buf, size, status);
    if (line < 0)
        return -1;
    int body = snprintf(NULL, 0, "%s\n", why);
    int n = snprintf(buf + line, size - (size_t)line,
                     "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
                     "Connection: close\r\n%s\r\n%s\n",
                     body, extra ? extra : "", why);
    if (n < 0 || (size_t)n >= size - (size_t)line)
        return -1;
    return line + n;
}
