// Source correlation in C++ (tests/t/source_lines.sh): the calls come out
// of libstdc++ and inlined templates; the line is the marked one and the
// function's name is demangled.
#include <fstream>
#include <iostream>

namespace store {
struct Widget {
	int save(int n);
};

int Widget::save(int n)
{
	std::ofstream f("/dev/null");	// MARK:cpp_open
	f << n;
	std::cout << "cpp-save " << n << std::endl;	// MARK:cpp_cout
	return f.good() ? 0 : 1;
}
} // namespace store

int main()
{
	store::Widget w;
	return w.save(42);
}
