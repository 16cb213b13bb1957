#include <libxml/parser.h>

/* Reads the branch feed with libxml2. */
xmlDocPtr LBReadFeed(const char *buffer, int length) {
    return xmlReadMemory(buffer, length, NULL, NULL, XML_PARSE_NOENT | XML_PARSE_DTDLOAD);   /* MOAT-CODE-002 */
}

xmlDocPtr LBReadFeedSafely(const char *buffer, int length) {
    return xmlReadMemory(buffer, length, NULL, NULL, XML_PARSE_NONET);                     /* safe */
}
