import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pagination } from '../../../../src/features/leads-list/components/pagination';

// The gaps are hidden from screen readers, so they are read from the markup.
const pageNumbers = () =>
  [...screen.getByRole('navigation', { name: 'Pages' }).querySelectorAll('li')].map(
    (item) => item.textContent,
  );

describe('Leads List pagination', () => {
  it('numbers every page when there are few', () => {
    render(<Pagination page={2} pages={4} onSelect={() => {}} />);
    expect(pageNumbers()).toEqual(['1', '2', '3', '4']);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the first, the last and the pages around the current one of 20,000', () => {
    render(<Pagination page={500} pages={20_000} onSelect={() => {}} />);
    expect(pageNumbers()).toEqual(['1', '…', '498', '499', '500', '501', '502', '…', '20000']);
  });

  it('needs no gap between neighbours at the start', () => {
    render(<Pagination page={1} pages={9} onSelect={() => {}} />);
    expect(pageNumbers()).toEqual(['1', '2', '3', '…', '9']);
  });

  it('selects the page that is clicked', async () => {
    const onSelect = vi.fn();
    render(<Pagination page={1} pages={3} onSelect={onSelect} />);
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onSelect).toHaveBeenCalledWith(3);
  });

  it('shows nothing when there is nothing to page', () => {
    render(<Pagination page={1} pages={0} onSelect={() => {}} />);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
  });
});
