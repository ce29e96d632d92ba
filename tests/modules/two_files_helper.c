/* The second file of mod_two_files. */
int two_files_helper(int x);

int two_files_helper(int x)
{
	return x + 22;
}
