// Fixture of structure.path_rooms_fails: a paths table with one row.
static const int kRows[] = {CodePath::Demo, "demo"};
