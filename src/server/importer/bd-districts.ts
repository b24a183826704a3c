// Bangladesh Bank routing numbers are bank(3) district(2) branch(3) check digit(1) (data/seed/SOURCES.md).
// The district codes (digits 4–5) and their districts are derived from the shipped routing numbers of
// data/seed/bank-branches/BD.csv: every one of its 10,026 routing numbers maps its two digits to exactly one
// district, 65 codes for the 64 districts (Dhaka has two, 26 and 27).
export const BD_DISTRICT_CODES: Readonly<Record<string, string>> = {
  '01': 'Bagerhat', '03': 'Bandarban', '04': 'Barguna', '06': 'Barishal',
  '09': 'Bhola', '10': 'Bogura', '12': 'Brahmanbaria', '13': 'Chandpur',
  '15': 'Chattogram', '18': 'Chuadanga', '19': 'Cumilla', '22': "Cox's Bazar",
  '26': 'Dhaka', '27': 'Dhaka', '28': 'Dinajpur', '29': 'Faridpur',
  '30': 'Feni', '32': 'Gaibandha', '33': 'Gazipur', '35': 'Gopalganj',
  '36': 'Habiganj', '38': 'Joypurhat', '39': 'Jamalpur', '41': 'Jashore',
  '42': 'Jhalokati', '44': 'Jhenaidah', '46': 'Khagrachhari', '47': 'Khulna',
  '48': 'Kishoreganj', '49': 'Kurigram', '50': 'Kushtia', '51': 'Lakshmipur',
  '52': 'Lalmonirhat', '54': 'Madaripur', '55': 'Magura', '56': 'Manikganj',
  '57': 'Meherpur', '58': 'Moulvibazar', '59': 'Munshiganj', '61': 'Mymensingh',
  '64': 'Naogaon', '65': 'Narail', '67': 'Narayanganj', '68': 'Narsingdi',
  '69': 'Natore', '70': 'Chapai Nawabganj', '72': 'Netrokona', '73': 'Nilphamari',
  '75': 'Noakhali', '76': 'Pabna', '77': 'Panchagarh', '78': 'Patuakhali',
  '79': 'Pirojpur', '81': 'Rajshahi', '82': 'Rajbari', '84': 'Rangamati',
  '85': 'Rangpur', '86': 'Shariatpur', '87': 'Satkhira', '88': 'Sirajganj',
  '89': 'Sherpur', '90': 'Sunamganj', '91': 'Sylhet', '93': 'Tangail',
  '94': 'Thakurgaon',
};
