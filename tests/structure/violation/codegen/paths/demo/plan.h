// Fixture of structure.path_rooms_fails: a path's header.
#pragma once

namespace tilec::codegen::demo {

struct DemoPlan {
  int stages = 2;
};
enum class DemoSchedule { Inline, Specialized };
int demo_stages(const DemoPlan& p);
using DemoRun = int;

}  // namespace tilec::codegen::demo
