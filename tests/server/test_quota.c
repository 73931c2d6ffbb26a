/* test_quota.c -- quota.h on its own, with times chosen by the test:
 * buckets take and refill at their rate, refunds give back, counts hold
 * and release, a full table forgets only keys that limit nothing and
 * otherwise refuses new ones, and addresses are counted per machine (IPv4)
 * or per /64 (IPv6). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "server/core/quota.h"

#define MIN 60000LL

static void test_bucket_takes_burst_then_refills(void **state)
{
    (void)state;
    quota *q = quota_new(16);
    for (int i = 0; i < 5; i++)
        assert_true(quota_take(q, "a", 5, MIN, 0));
    assert_false(quota_take(q, "a", 5, MIN, 0));
    assert_false(quota_take(q, "a", 5, MIN, MIN / 5 - 1));  /* not quite one back */
    assert_true(quota_take(q, "a", 5, MIN, MIN / 5));        /* one token a fifth of it */
    assert_false(quota_take(q, "a", 5, MIN, MIN / 5));
    /* another key is its own bucket */
    assert_true(quota_take(q, "b", 5, MIN, 0));
    /* a minute later the bucket is full again, not fuller */
    for (int i = 0; i < 5; i++)
        assert_true(quota_take(q, "a", 5, MIN, 3 * MIN));
    assert_false(quota_take(q, "a", 5, MIN, 3 * MIN));
    quota_free(q);
}

static void test_refund_gives_back_one(void **state)
{
    (void)state;
    quota *q = quota_new(16);
    assert_true(quota_take(q, "a", 2, MIN, 0));
    assert_true(quota_take(q, "a", 2, MIN, 0));
    assert_false(quota_take(q, "a", 2, MIN, 0));
    quota_refund(q, "a", 2, MIN, 0);
    assert_true(quota_take(q, "a", 2, MIN, 0));
    /* a refund never fills a bucket past its burst */
    quota_refund(q, "a", 2, MIN, 10 * MIN);
    quota_refund(q, "a", 2, MIN, 10 * MIN);
    assert_true(quota_tokens(q, "a", 2, MIN, 10 * MIN) <= 2.0);
    quota_free(q);
}

static void test_no_limit_is_always_allowed(void **state)
{
    (void)state;
    quota *q = quota_new(1);
    for (int i = 0; i < 1000; i++)
        assert_true(quota_take(q, "a", 0, MIN, 0));
    assert_int_equal(quota_size(q), 0);
    for (int i = 0; i < 100; i++)
        assert_true(quota_hold(q, "n", 0, 0));
    assert_int_equal(quota_count(q, "n"), 100);
    quota_free(q);
}

static void test_counts_hold_and_release(void **state)
{
    (void)state;
    quota *q = quota_new(16);
    assert_true(quota_hold(q, "ws:1.2.3.4", 2, 0));
    assert_true(quota_hold(q, "ws:1.2.3.4", 2, 0));
    assert_false(quota_hold(q, "ws:1.2.3.4", 2, 0));
    assert_int_equal(quota_count(q, "ws:1.2.3.4"), 2);
    quota_release(q, "ws:1.2.3.4");
    assert_true(quota_hold(q, "ws:1.2.3.4", 2, 0));
    quota_release(q, "ws:1.2.3.4");
    quota_release(q, "ws:1.2.3.4");
    quota_release(q, "ws:1.2.3.4");  /* one too many: stays at zero */
    assert_int_equal(quota_count(q, "ws:1.2.3.4"), 0);
    quota_free(q);
}

/* A full table forgets keys that limit nothing (full buckets, zero
 * counts), and refuses new keys while every key still limits something:
 * a flood of new addresses cannot push out the one being limited. */
static void test_full_table_keeps_what_limits(void **state)
{
    (void)state;
    quota *q = quota_new(4);
    for (int i = 0; i < 5; i++)
        quota_take(q, "victim", 5, MIN, 0);
    assert_false(quota_take(q, "victim", 5, MIN, 0));
    char key[32];
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "other%d", i);
        assert_true(quota_take(q, key, 5, MIN, 0));
    }
    assert_int_equal(quota_size(q), 4);
    /* full of keys that still limit: a new one is refused ... */
    assert_false(quota_take(q, "newcomer", 5, MIN, 1));
    /* ... and the limited key stays limited */
    assert_false(quota_take(q, "victim", 5, MIN, 2));
    /* once the others' buckets are full again they are forgotten, and room
     * is made; the victim refilled too by then, so it has its burst back */
    assert_true(quota_take(q, "newcomer", 5, MIN, 2 * MIN));
    assert_true(quota_size(q) <= 4);
    /* a held count is never forgotten */
    quota *c = quota_new(1);
    assert_true(quota_hold(c, "held", 0, 0));
    assert_false(quota_take(c, "other", 5, MIN, 10 * MIN));
    assert_int_equal(quota_count(c, "held"), 1);
    quota_free(c);
    quota_free(q);
}

static void test_addresses_count_per_machine_or_network(void **state)
{
    (void)state;
    char a[64], b[64];
    quota_addr("192.0.2.7", a, sizeof a);
    assert_string_equal(a, "192.0.2.7");
    quota_addr("::ffff:192.0.2.7", b, sizeof b);
    assert_string_equal(b, "192.0.2.7");
    quota_addr("2001:db8:1:2:aaaa::1", a, sizeof a);
    quota_addr("2001:db8:1:2:bbbb:cccc:dddd:eeee", b, sizeof b);
    assert_string_equal(a, b);  /* one /64, one subscriber */
    assert_string_equal(a, "2001:db8:1:2::/64");
    quota_addr("2001:db8:1:3::1", b, sizeof b);
    assert_string_not_equal(a, b);
    quota_addr("not an address", a, sizeof a);
    assert_string_equal(a, "not an address");
}

/* A refusal says how long until the next token: a bucket of 5 a minute
 * gives one back every 12 s, counted from the last take. */
static void test_retry_says_when_a_token_is_back(void **state)
{
    (void)state;
    quota *q = quota_new(16);
    for (int i = 0; i < 5; i++)
        assert_true(quota_take(q, "a", 5, MIN, 0));
    assert_int_equal(quota_retry_s(q, "a", 5, MIN, 0), 12);
    assert_int_equal(quota_retry_s(q, "a", 5, MIN, 6000), 6);
    assert_int_equal(quota_retry_s(q, "a", 5, MIN, 11001), 1);  /* 0.999 s: rounded up */
    assert_int_equal(quota_retry_s(q, "a", 5, MIN, MIN), 1);    /* one is back */
    assert_int_equal(quota_retry_s(q, "unknown", 5, MIN, 0), 1);
    for (int i = 0; i < 3; i++)
        assert_true(quota_take(q, "h", 3, 3600000, 0));
    assert_int_equal(quota_retry_s(q, "h", 3, 3600000, 0), 1200);
    quota_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bucket_takes_burst_then_refills),
        cmocka_unit_test(test_refund_gives_back_one),
        cmocka_unit_test(test_no_limit_is_always_allowed),
        cmocka_unit_test(test_counts_hold_and_release),
        cmocka_unit_test(test_full_table_keeps_what_limits),
        cmocka_unit_test(test_addresses_count_per_machine_or_network),
        cmocka_unit_test(test_retry_says_when_a_token_is_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
