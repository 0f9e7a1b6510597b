/* test_json.c -- base/json.c (the strict JSON reader and writer) and
** base/sha256.c (FIPS 180-4's test vectors). */
#include "tests/unit/tt.h"
#include "base/json.h"
#include "base/sha256.h"

/* parses text; returns the error message ("" on success) in msg */
static bool parse(tp_json_doc *d, const char *text, char *msg, size_t n)
{
    tp_err e;
    tp_err_clear(&e);
    bool ok = tp_json_parse(d, text, strlen(text), "t.json", &e);
    snprintf(msg, n, "%s", ok ? "" : e.msg);
    return ok;
}

static void t_json_values(void)
{
    tp_json_doc d;
    char msg[600];
    TT_CHECK(parse(&d, " {\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"x\\u00e9\\ud83d\\ude00\\n\"},"
                       " \"big\": 18446744073709551615, \"i\": -9007199254740993, \"a\": 7}\n",
                   msg, sizeof msg));
    TT_EQ_STR(msg, "");
    const tp_json *r = d.root;
    TT_EQ_I(r->type, TP_JSON_OBJ);
    TT_EQ_U(r->len, 5);
    const tp_json *a = tp_json_get(r, "a");   /* the first of the duplicates */
    TT_EQ_I(a->type, TP_JSON_ARR);
    TT_EQ_U(a->len, 5);
    TT_CHECK(a->items[1].num == -2500.0);
    TT_EQ_STR(a->items[1].text, "-2.5e3");
    TT_CHECK(a->items[2].type == TP_JSON_BOOL && a->items[2].b);
    TT_CHECK(a->items[3].type == TP_JSON_BOOL && !a->items[3].b);
    TT_CHECK(a->items[4].type == TP_JSON_NULL);
    const tp_json *c = tp_json_get(tp_json_get(r, "b"), "c");
    TT_EQ_STR(c->text, "x\xc3\xa9\xf0\x9f\x98\x80\n");
    TT_EQ_U(c->len, 8);
    int64_t i;
    TT_CHECK(tp_json_int(tp_json_get(r, "i"), &i));
    TT_EQ_I(i, -9007199254740993LL);           /* exact, beyond a double's integers */
    TT_CHECK(!tp_json_int(tp_json_get(r, "big"), &i)); /* does not fit */
    TT_CHECK(!tp_json_int(&a->items[1], &i));
    TT_CHECK(tp_json_get(r, "zz") == NULL);
    TT_CHECK(tp_json_get(a, "a") == NULL);
    tp_sbuf b;
    tp_sbuf_init(&b);
    tp_json_write(r, &b);
    TT_EQ_STR(tp_sbuf_str(&b), "{\"a\":[1,-2.5e3,true,false,null],\"b\":{\"c\":\"x\xc3\xa9\xf0\x9f\x98\x80\\n\"},"
                               "\"big\":18446744073709551615,\"i\":-9007199254740993,\"a\":7}");
    /* what the writer wrote reads back to the same text */
    tp_json_doc d2;
    TT_CHECK(parse(&d2, tp_sbuf_str(&b), msg, sizeof msg));
    tp_sbuf b2;
    tp_sbuf_init(&b2);
    tp_json_write(d2.root, &b2);
    TT_EQ_STR(tp_sbuf_str(&b2), tp_sbuf_str(&b));
    tp_sbuf_free(&b);
    tp_sbuf_free(&b2);
    tp_json_free(&d2);
    tp_json_free(&d);
    TT_CHECK(parse(&d, "[]", msg, sizeof msg) && d.root->type == TP_JSON_ARR && d.root->len == 0);
    tp_json_free(&d);
    TT_CHECK(parse(&d, "\"\\u0000x\"", msg, sizeof msg) && d.root->len == 2 && d.root->text[1] == 'x');
    tp_json_free(&d);
    TT_CHECK(parse(&d, "0", msg, sizeof msg) && d.root->num == 0);
    tp_json_free(&d);
}

/* text is refused with exactly this message */
static void refused(const char *text, const char *want)
{
    tp_json_doc d;
    char msg[600];
    bool ok = parse(&d, text, msg, sizeof msg);
    TT_CHECK(!ok);
    if (ok) tp_json_free(&d);
    TT_EQ_STR(msg, want);
}

static void t_json_errors(void)
{
    refused("", "t.json:1:1: expected a value, found end of input");
    refused("[1,]", "t.json:1:4: trailing comma");
    refused("{\"a\":1,}", "t.json:1:8: trailing comma");
    refused("{\n  \"a\" 1}", "t.json:2:7: expected ':' after the key, found '1'");
    refused("{a:1}", "t.json:1:2: expected a string key, found 'a'");
    refused("[01]", "t.json:1:2: a number cannot start with 0 (leading zero)");
    refused("[1.]", "t.json:1:4: a digit must follow the decimal point");
    refused("[.5]", "t.json:1:2: expected a value, found '.'");
    refused("[+1]", "t.json:1:2: expected a value, found '+'");
    refused("1e", "t.json:1:3: an exponent needs digits");
    refused("[NaN]", "t.json:1:2: expected a value, found 'N'");
    refused("[tru]", "t.json:1:2: expected a value, found 't'");
    refused("\"a\tb\"", "t.json:1:3: control character in a string (escape it)");
    refused("\"\\x\"", "t.json:1:2: unknown escape in a string");
    refused("\"\\u12g4\"", "t.json:1:6: \\u needs four hexadecimal digits");
    refused("\"\\ud800\"", "t.json:1:2: high surrogate in \\u escape without its low half");
    refused("\"\\udc00\"", "t.json:1:2: unpaired low surrogate in \\u escape");
    refused("\"\xc3\x28\"", "t.json:1:2: invalid UTF-8 in a string");
    refused("\"\xed\xa0\x80\"", "t.json:1:2: invalid UTF-8 in a string"); /* an encoded surrogate */
    refused("\"abc", "t.json:1:1: string not closed");
    refused("[1 2]", "t.json:1:4: expected ',' or ']', found '2'");
    refused("{} x", "t.json:1:4: unexpected 'x' after the JSON value");
    refused("// c\n1", "t.json:1:1: expected a value, found '/'");
    char deep[2 * TP_JSON_MAX_DEPTH + 8];
    memset(deep, '[', TP_JSON_MAX_DEPTH + 1);
    memset(deep + TP_JSON_MAX_DEPTH + 1, ']', TP_JSON_MAX_DEPTH + 1);
    deep[2 * TP_JSON_MAX_DEPTH + 2] = 0;
    char want[64];
    snprintf(want, sizeof want, "t.json:1:%d: nesting too deep", TP_JSON_MAX_DEPTH + 1);
    refused(deep, want);
    deep[0] = ' '; /* one level less: accepted */
    deep[2 * TP_JSON_MAX_DEPTH + 1] = 0;
    tp_json_doc d;
    char msg[600];
    TT_CHECK(parse(&d, deep + 1, msg, sizeof msg));
    TT_EQ_STR(msg, "");
    if (d.root) tp_json_free(&d);
    /* a NUL byte inside the given length */
    tp_err e;
    tp_err_clear(&e);
    TT_CHECK(!tp_json_parse(&d, "[1,\0 2]", 7, NULL, &e));
    TT_EQ_STR(e.msg, "<json>:1:4: NUL byte in JSON text");
}

static const char *sha(const char *s, size_t n, char out[65])
{
    tp_sha256 h;
    tp_sha256_init(&h);
    tp_sha256_put(&h, s, n);
    tp_sha256_hex(&h, out);
    return out;
}

static void t_sha256(void)
{
    char hex[65];
    /* FIPS 180-4's examples (NIST's SHA256.pdf) and the empty message */
    TT_EQ_STR(sha("abc", 3, hex), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    TT_EQ_STR(sha("", 0, hex), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    TT_EQ_STR(sha(two, strlen(two), hex), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a's, fed in uneven pieces */
    tp_sha256 h;
    tp_sha256_init(&h);
    char a[1000];
    memset(a, 'a', sizeof a);
    size_t left = 1000000, step = 1;
    while (left) {
        size_t k = TP_MIN(TP_MIN(left, step), sizeof a);
        tp_sha256_put(&h, a, k);
        left -= k;
        step = step % 997 + 13;
    }
    tp_sha256_hex(&h, hex);
    TT_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* padding boundaries: 55, 56 and 64 bytes */
    TT_EQ_STR(sha(a, 55, hex), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    TT_EQ_STR(sha(a, 56, hex), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    TT_EQ_STR(sha(a, 64, hex), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

int main(void)
{
    TT_RUN(t_json_values);
    TT_RUN(t_json_errors);
    TT_RUN(t_sha256);
    return tt_done();
}
