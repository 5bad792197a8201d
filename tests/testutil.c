int testutil_dummy;
