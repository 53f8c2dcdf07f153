# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Tests of views/comparison (included from tests/CMakeLists.txt): the comparison window's models and
# views on real data, and the headless rendering of every comparison view (parallax --compare /
# --scaling --render ...).
parallax_test(tst_comparison views/tst_comparison.cpp parallax_views)
parallax_test(tst_render_comparison app/tst_render_comparison.cpp parallax_datasource Qt6::Gui)
target_compile_definitions(tst_render_comparison PRIVATE PARALLAX_GUI="$<TARGET_FILE:parallax>")
add_dependencies(tst_render_comparison parallax)
# The scaling window's models per call path against parallax-cli model (issue 17 §2).
parallax_test(tst_scalingmodels views/tst_scalingmodels.cpp parallax_views)
add_dependencies(tst_scalingmodels parallax-cli)
